"""The orchestration: plan -> implement -> verify -> profile -> propose, from a process that never imports torch."""
