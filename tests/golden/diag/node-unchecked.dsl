# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --disable node-file --root tests/golden/doctor/empty
# A root with nothing (an image before its first boot, no export given): every check is a note, exit 0.
