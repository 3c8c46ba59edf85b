"""Help strings that quote a default state the value the code uses: they are built from the constants
(`solver.core.defaults`), which the modules that act on them import."""
from __future__ import annotations

import typer

from solver.cli import serve
from solver.cli.main import DOT_DEPTH, OPENERS_TOP, app
from solver.core import defaults, server_limits, strategy

COMMAND = typer.main.get_command(app)


def option_help(command: str, name: str) -> str:
    """Return the help of `deduce COMMAND`'s option `name` (its parameter name), whitespace collapsed."""
    [param] = [p for p in COMMAND.commands[command].params if p.name == name]
    return " ".join(param.help.split())


def test_the_code_uses_the_constants_the_help_is_built_from():
    assert (strategy.SAFETY_FACTOR, strategy.SAFETY_MIN_SECONDS) == (defaults.SAFETY_FACTOR,
                                                                      defaults.SAFETY_MIN_SECONDS)
    assert strategy.safety_seconds(1.0) == defaults.SAFETY_FACTOR
    assert strategy.safety_seconds(1e-6) == defaults.SAFETY_MIN_SECONDS
    limits = server_limits.Limits(live_workers=3)
    assert limits.queue == defaults.QUEUE_PER_WORKER * 3
    assert (limits.header_timeout, limits.body_timeout) == (defaults.HEADER_TIMEOUT, defaults.BODY_TIMEOUT)
    assert (serve.Limits().keep_alive, serve.Limits().max_connections) == (
        defaults.KEEP_ALIVE, defaults.MAX_CONNECTIONS)


def test_the_budget_help_states_the_safety_net():
    for command in ("solve", "hint", "tree"):
        text = option_help(command, "budget")
        assert f"at {defaults.SAFETY_FACTOR:g} times this" in text, text
        assert f"not before {defaults.SAFETY_MIN_SECONDS:g} s" in text, text


def test_the_serve_help_states_the_limits_defaults():
    assert f"[default: {defaults.QUEUE_PER_WORKER} x the workers]" in option_help("serve", "live_queue")
    assert f"[default: {defaults.MAX_CONNECTIONS}]" in option_help("serve", "max_connections")
    assert f"[default: {defaults.KEEP_ALIVE:g}]" in option_help("serve", "keep_alive")
    assert f"[default: {defaults.HEADER_TIMEOUT:g}]" in option_help("serve", "header_timeout")
    assert f"[default: {defaults.BODY_TIMEOUT:g}]" in option_help("serve", "body_timeout")


def test_the_openers_and_tree_help_state_their_defaults():
    assert f"(default {OPENERS_TOP})" in option_help("openers", "top")
    assert f"(default {DOT_DEPTH})" in option_help("tree", "dot")
