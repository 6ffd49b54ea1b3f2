"""Stage 3, the plan: the module's regions and the ranked spaces and strategies of each (pure)."""
