-- SPDX-License-Identifier: BSD-2-Clause-Patent
-- Neovim (0.7 or later): `dslc lsp` for cluster descriptions, with Neovim's
-- built-in client. Copy to ~/.config/nvim/plugin/dslc.lua (make install puts
-- the syntax and filetype detection in Neovim's site directory). One server
-- per Neovim, started in the working directory, where it reads .dslc-lint.
local client_id

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'dslc',
  callback = function(args)
    if not client_id or not vim.lsp.get_client_by_id(client_id) then
      client_id = vim.lsp.start_client({
        name = 'dslc',
        cmd = { 'dslc', 'lsp' },
        cmd_cwd = vim.loop.cwd(),
        root_dir = vim.loop.cwd(),
      })
    end
    if client_id then
      vim.lsp.buf_attach_client(args.buf, client_id)
    end
  end,
})
