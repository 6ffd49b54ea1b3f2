"""Stage 7, the proposal: the `<stem>_hiera.py` file's header and whether it still matches its reference (pure)."""
