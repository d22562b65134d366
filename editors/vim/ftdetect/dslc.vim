" SPDX-License-Identifier: BSD-2-Clause-Patent
" dslc cluster descriptions: a *.dsl file that starts with `daos` or holds a
" cluster, hardware or profile block (other tools write .dsl files too), and
" the repository's lint settings, .dslc-lint. `set filetype`, not
" `setfiletype`: Vim's own detection has already called every *.dsl
" structurizr (or dsssl) when these run.
function! s:DslcDetect() abort
  for l:line in getline(1, 200)
    if l:line =~# '^\s*daos\s' || l:line =~# '^\s*\(cluster\|hardware\|profile\)\s.*{'
      set filetype=dslc
      return
    endif
  endfor
endfunction
autocmd BufNewFile,BufRead *.dsl call s:DslcDetect()
autocmd BufNewFile,BufRead .dslc-lint setfiletype dslc
