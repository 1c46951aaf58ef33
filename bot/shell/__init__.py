"""The terminal shell adapter (``omg shell``, and ``omg run`` with no platform token)."""

from bot.shell.backend import ShellBackend

__all__ = ["ShellBackend"]
