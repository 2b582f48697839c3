"""Terminal front ends and the ``gridgames`` command."""
