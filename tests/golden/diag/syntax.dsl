# brace on its own line, unterminated string, stray ']'
daos 2.6
cluster tier0
{
  provider "ofi+tcp
}
]
