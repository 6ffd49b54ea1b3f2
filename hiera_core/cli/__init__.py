"""`hiera`: the command line, a shell over the engine's functions."""
