"""Stage 5, verification: the judge (workers only), its checks and verdicts, input sets, static checks and reproducers."""
