# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --root tests/golden/doctor/cmdline --topology examples/hgx-b200/hgx-b200.xml --disable node-file,node-unchecked
# grub was not regenerated: irqaffinity never reached the running kernel.
