"""Slack settings, from the environment (``SLACK_*`` and ``PORT``)."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, Field

from core.config import env_float, env_int

SLACK_API_URL = "https://slack.com/api/"


class SlackSettings(BaseModel):
    bot_token: str = Field(repr=False)
    app_token: str | None = Field(default=None, repr=False)  # set -> Socket Mode
    signing_secret: str | None = Field(default=None, repr=False)  # HTTP mode
    api_url: str = SLACK_API_URL
    host: str = "0.0.0.0"
    port: int = 3000
    path: str = "/slack/events"
    edit_interval: float = 1.0  # at most one chat.update per message per this many seconds
    shutdown_grace: float = 20.0  # seconds to let in-flight answers finish on shutdown

    @property
    def socket_mode(self) -> bool:
        return bool(self.app_token)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "SlackSettings":
        api_url = (env.get("SLACK_API_URL") or SLACK_API_URL).strip()
        return cls(
            bot_token=(env.get("SLACK_BOT_TOKEN") or "").strip(),
            app_token=(env.get("SLACK_APP_TOKEN") or "").strip() or None,
            signing_secret=(env.get("SLACK_SIGNING_SECRET") or "").strip() or None,
            api_url=api_url if api_url.endswith("/") else api_url + "/",
            host=(env.get("SLACK_HOST") or "0.0.0.0").strip(),
            port=env_int(env, "PORT", 3000),
            edit_interval=max(0.0, env_float(env, "OMG_SLACK_EDIT_INTERVAL", 1.0)),
            shutdown_grace=max(0.0, env_float(env, "OMG_SHUTDOWN_GRACE", 20.0)),
        )

    def problems(self) -> list[str]:
        """What is missing to start, as sentences a user can act on (empty when ready)."""
        found: list[str] = []
        if not self.bot_token.startswith("xoxb-") and not self.bot_token.startswith("xoxe"):
            found.append("SLACK_BOT_TOKEN should be the bot token that starts with xoxb-.")
        if self.app_token and not self.app_token.startswith("xapp-"):
            found.append("SLACK_APP_TOKEN should be an app-level token that starts with xapp-.")
        if not self.app_token and not self.signing_secret:
            found.append(
                "Set SLACK_APP_TOKEN (Socket Mode, no public URL needed) or SLACK_SIGNING_SECRET "
                "(HTTP mode: Slack calls https://<your-host>/slack/events)."
            )
        return found
