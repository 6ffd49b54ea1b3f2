"""Stage 7, the proposal: the `<stem>_hiera.py` file's header, its check against its reference, and its writing."""
