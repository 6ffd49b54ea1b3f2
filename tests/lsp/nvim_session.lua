-- Drives a real Neovim 0.11 against hiera-lsp for test_neovim.py, with the shipped configuration
-- (client-config/neovim/hiera.lua), and writes what Neovim received as JSON to $HIERA_NVIM_OUT.
local repo, ws, out = os.getenv('HIERA_REPO'), os.getenv('HIERA_WS'), os.getenv('HIERA_NVIM_OUT')
local seen = { messages = {}, progress = {}, shown = {} }

local function wrap(method, record)
  local default = vim.lsp.handlers[method]
  vim.lsp.handlers[method] = function(err, result, ctx, config)
    record(result)
    return default(err, result, ctx, config)
  end
end

local function request(client, buf, method, params)
  local response = client:request_sync(method, params, 20000, buf)
  assert(response and not response.err, method .. ' failed: ' .. vim.inspect(response))
  return response.result
end

local function at(buf, line, character)
  return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } }
end

local function open(path)
  vim.cmd.edit(path)
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.wait(30000, function() return #vim.lsp.get_clients({ bufnr = buf, name = 'hiera' }) > 0 end, 50),
    'hiera-lsp did not attach to ' .. path)
  return buf, vim.lsp.get_clients({ bufnr = buf, name = 'hiera' })[1]
end

local function codes(buf)
  local found = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, diagnostic.code)
  end
  table.sort(found)
  return found
end

local ok, failure = pcall(function()
  dofile(repo .. '/client-config/neovim/hiera.lua')
  vim.lsp.config('hiera', {
    cmd = { os.getenv('HIERA_PYTHON'), '-m', 'hiera_lsp' },
    settings = { hiera = { device = 'cpu', budget = 1 } },
  })
  wrap('window/showMessage', function(result) table.insert(seen.messages, result.message) end)
  wrap('window/showDocument', function(result) table.insert(seen.shown, result.uri) end)
  vim.api.nvim_create_autocmd('LspProgress', { callback = function(event)
    local value = event.data.params.value
    table.insert(seen.progress, value.kind .. ': ' .. (value.kind == 'begin' and value.title or value.message or ''))
  end })

  -- A .cu file: static analysis and a kernel hover.
  local cu, client = open(ws .. '/kernels/scale.cu')
  seen.cu_filetype = vim.bo[cu].filetype
  seen.position_encoding = client.offset_encoding
  vim.wait(20000, function() return #vim.diagnostic.get(cu) > 0 end, 50)
  seen.cu_diagnostics = codes(cu)
  seen.kernel_hover = request(client, cu, 'textDocument/hover', at(cu, 10, 6)).contents.value

  -- The quick-start example: module hover, code actions, a CPU optimize job, the edit applied.
  local py = open(ws .. '/elementwise_chain.py')
  seen.module_hover = request(client, py, 'textDocument/hover', at(py, 16, 7)).contents.value
  local params = at(py, 16, 7)
  params.range = { start = params.position, ['end'] = params.position }
  params.position = nil
  params.context = { diagnostics = {} }
  local optimize
  seen.actions = {}
  for _, action in ipairs(request(client, py, 'textDocument/codeAction', params)) do
    table.insert(seen.actions, action.title)
    if action.title == 'HIERA: Optimize this module' then optimize = action end
  end
  client:exec_cmd(optimize.command, { bufnr = py })
  vim.wait(400000, function()
    for _, message in ipairs(seen.messages) do
      if message:find('^HIERA optimize Model:') then return true end
    end
    return false
  end, 200)
  local proposal = vim.fn.bufnr(ws .. '/elementwise_chain_hiera.py')
  assert(proposal > 0, 'the proposal edit was not applied')
  seen.proposal = table.concat(vim.api.nvim_buf_get_lines(proposal, 0, -1, false), '\n')
  vim.wait(20000, function() return #vim.diagnostic.get(proposal) > 0 end, 50)
  seen.proposal_diagnostics = codes(proposal)

  -- Applied, not yet written: nothing left to apply, and an edit of the reference makes it stale.
  seen.actions_after_apply = {}
  for _, action in ipairs(request(client, py, 'textDocument/codeAction', params)) do
    table.insert(seen.actions_after_apply, action.title)
  end
  vim.api.nvim_buf_set_lines(py, 17, 17, false, { '    # changed' })
  seen.stale = vim.wait(20000, function()
    for _, diagnostic in ipairs(vim.diagnostic.get(py)) do
      if diagnostic.code == 'HL201' then return true end
    end
    return false
  end, 50)

  -- Written as Neovim writes it (its own final newline): not a hand edit.
  vim.api.nvim_buf_call(proposal, function() vim.cmd('silent write') end)
  vim.wait(3000, function() return false end, 100) -- the save re-diagnoses every open document
  seen.written_proposal_diagnostics = codes(proposal)
end)

seen.error = not ok and tostring(failure) or nil
local handle = assert(io.open(out, 'w'))
handle:write(vim.json.encode(seen))
handle:close()
vim.cmd('qa!')
