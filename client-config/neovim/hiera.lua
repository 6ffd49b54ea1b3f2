-- HIERA language server for Neovim 0.11+ (vim.lsp.config / vim.lsp.enable).
--
-- In init.lua:   dofile('/path/to/hiera/client-config/neovim/hiera.lua')
-- then override what you need, e.g.
--   vim.lsp.config('hiera', { settings = { hiera = { device = 'cpu', budget = 2 } } })
--
-- Settings (all optional; editor settings rank below HIERA_MODEL / OPENAI_BASE_URL and pyproject.toml):
--   model, baseUrl      an OpenAI-compatible endpoint (none: offline expert mode)
--   budget, device      candidates per optimize run; 'cuda' or 'cpu'
--   pythonPath          interpreter that runs jobs (default: the one running hiera-lsp)
--   jobTimeLimit        seconds before a job is killed (default 3600)
--   maxParallelJobs     jobs at once over all modules (default 1)
--
-- Use: K hovers a module class, its forward, a __global__ kernel or a `# hiera:` directive;
-- gra lists the code actions (HIERA: Optimize this module, ...); job progress shows through
-- LspProgress (e.g. in the statusline with vim.lsp.status()). Cancel a job with
--   :lua vim.lsp.get_clients({ name = 'hiera' })[1]:exec_cmd({ title = 'cancel', command = 'hiera.cancelJob', arguments = { 'job-1' } })
-- (job ids: the hiera.listJobs command).

vim.lsp.config('hiera', {
  cmd = { 'hiera-lsp' },
  filetypes = { 'python', 'cuda' },
  root_markers = { '.hiera', 'pyproject.toml', '.git' },
})
vim.lsp.enable('hiera')
