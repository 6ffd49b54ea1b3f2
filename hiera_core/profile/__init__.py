"""Stage 6, profiling: the one timing method for baseline and candidates, and Nsight Compute counters (workers only)."""
