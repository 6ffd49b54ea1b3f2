"""Stage 1, the task: loading a module to optimize (a KernelBench file or a `# hiera:`-marked class)."""
