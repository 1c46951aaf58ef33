"""What an add-on, component or app is made for: one made for a rival host is no answer."""

from __future__ import annotations

from core.search.rivals import hosts_asked, hosts_named, made_for_a_rival


def test_the_hosts_a_request_names_by_family() -> None:
    ui, editors, web, mobile = hosts_named("ESLint plugin with lint rules for Svelte components, in VS Code")
    assert (ui, editors, web, mobile) == ({"svelte"}, {"vscode"}, set(), set())
    assert hosts_named("a React Native date picker")[0] == frozenset()  # a mobile framework, not React
    assert hosts_named("neovim plugin for Flutter")[1] == {"vim"}  # Vim and Neovim share plugins


def test_a_candidate_made_for_a_rival_host_is_no_answer() -> None:
    svelte = hosts_named("ESLint plugin with lint rules for Svelte components")
    assert made_for_a_rival(svelte, ["yannickcr/eslint-plugin-react", "React specific linting rules for ESLint"])
    assert not made_for_a_rival(svelte, ["someone/widgets", "Works with React, Vue and Svelte"])  # names it too
    assert not made_for_a_rival(svelte, ["xojs/xo", "JavaScript/TypeScript linter (ESLint wrapper) with great defaults"])
    android = hosts_named("Android screen transition that shatters the activity")
    assert made_for_a_rival(android, ["Yalantis/StarWars.iOS", "This component implements transition animation"])


def test_what_the_asker_leaves_or_compares_with_is_no_host() -> None:
    assert not any(hosts_asked("a lighter alternative to VS Code"))
    assert not any(hosts_asked("we're moving off Angular, what should we use for the admin app?"))
    assert not any(hosts_asked("something like Vim but easier", compared=("vim",)))
    assert hosts_asked("a Svelte component for polls")[0] == {"svelte"}
    assert hosts_asked("a drop-in admin dashboard like the Rails ones, but for Sinatra")[2] == {"sinatra"}
    assert hosts_asked("I'd like the Svelte one")[0] == {"svelte"}


def test_a_request_naming_two_of_a_family_keeps_both() -> None:
    both = hosts_named("moving from Vue to React, need a React table like the Vue one we had")
    assert not made_for_a_rival(both, ["someone/vue-table", "A table component for Vue"])
