# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --root tests/golden/doctor/thp --topology examples/hgx-b200/hgx-b200.xml --disable node-file,node-unchecked
# Booted without dslc's command line (transparent_hugepage=never), THP is at the kernel's
# default, madvise on Debian: daos_server 2.6.5 and later count it as enabled and refuse to start.
