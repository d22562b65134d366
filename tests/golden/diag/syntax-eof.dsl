# end of file inside two blocks
daos 2.6
cluster tier0 {
  provider "ofi+tcp"
  fabric roce {
