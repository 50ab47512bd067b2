"""Test helpers that ship with parlour, so a new game (ours or anyone's) can check itself."""
