"""Pacing message edits on chat platforms: per message (``CoalescingEditor``) and per group of
messages (``EditBudget``). Platform-free; the Slack and Discord adapters give it their edit call."""

from core.pacing.budget import EditBudget
from core.pacing.editor import CoalescingEditor, RetryAfter, SharedBucket, bucket_key

__all__ = ["CoalescingEditor", "EditBudget", "RetryAfter", "SharedBucket", "bucket_key"]
