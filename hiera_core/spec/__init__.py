"""Stage 2, the contract-augmented spec: its data model (pure) and building it by running the reference (torch, workers only)."""
