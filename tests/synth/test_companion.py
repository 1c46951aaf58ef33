"""The Companion: small talk, and a real answer to "what can you do?"."""

from __future__ import annotations

import pytest

from core.agents.companion import Companion
from tests.synth.contexts import agent_context
from tests.synth.factories import repo_list


async def reply(message: str, **kwargs: object) -> str:
    result = await Companion().run(agent_context(message, **kwargs))
    assert result.data is None and result.error is None and result.text
    return result.text


@pytest.mark.parametrize("message", ["thanks", "Thank you!", "thx", "cheers", "thanks for the help!"])
async def test_thanks(message: str) -> None:
    assert (await reply(message)).startswith("You're welcome! Happy to help find repos.")


async def test_thanks_points_back_at_the_results() -> None:
    text = await reply("thanks", previous=repo_list(3))
    assert "I can analyze **pmndrs/zustand** or compare the first two" in text


@pytest.mark.parametrize("message", ["hello", "Hi", "hey there", "good morning"])
async def test_greetings(message: str) -> None:
    text = await reply(message)
    assert text.startswith("Hello!") and "what can you do?" in text


@pytest.mark.parametrize("message", ["bye", "goodbye!", "see you later", "that's all"])
async def test_goodbyes(message: str) -> None:
    assert (await reply(message)).startswith("Goodbye!")


@pytest.mark.parametrize("message", ["what can you do?", "help", "What can I ask?", "how do I use this?",
                                     "hey, what can you do"])
async def test_capabilities_are_a_real_answer(message: str) -> None:
    text = await reply(message)
    for heading in ["**Find repositories**", "**Analyze one**", "**Compare a few**", "**Follow up**",
                    "**Research**"]:
        assert heading in text
    for example in ["*find React state management libraries*", "*analyze pmndrs/zustand*",
                    "*compare zustand vs redux*", "*analyze the second one*", "*compare the first two*",
                    "*what about Python?*"]:
        assert example in text
    assert "`/research <goal> --quick`" in text and "--deep" in text and "omg research" in text


async def test_terminal_users_see_the_omg_command_first() -> None:
    text = await reply("what can you do?", platform="shell")
    assert text.index("omg research") < text.index("/research <goal>")


@pytest.mark.parametrize("message,start", [
    ("how are you?", "I'm doing well"),
    ("ok", "Glad that helps!"),
    ("that's helpful", "Glad that helps!"),
    ("that's not helpful", "Sorry that missed the mark."),
    ("tell me a joke", "I'm best with GitHub repositories"),
])
async def test_small_talk(message: str, start: str) -> None:
    assert (await reply(message)).startswith(start)
