# issue 54 item 11: blanks as tabs, every block's '{' touching its word
# clients: a client-only node set, mounts, NCCL
daos	2.6
cluster	tier0{
  provider	"ofi+verbs;ofi_rxm"
  access_points	gpu[001-003]
  fabric	roce{	gid_index	5	}
}
hardware	gpunode{
  sockets	         1
  cores_per_socket	32
  threads_per_core	1
  memory_per_numa	 512GiB
  numa	0{
    nic	 ens1f0np0	pci	0000:1a:00.0	role	storage	rdma	mlx5_0
    nic	 ib0	pci	0000:1b:00.0	role	compute	rdma	mlx5_2
    nvme	0000:21:00.0	0000:22:00.0
  }
}
profile	converged	:	gpunode{
  engine	per	numa{	targets	8	scm	ram	32GiB	nvme	roles	[wal	meta	data]	}
  nccl	on
}
profile	client	:	gpunode{	nccl	off	}
nodes	gpu[001-003]	:	converged
nodes	cn[01-02]	:	client
pool	tier0{	size	90%	svc_rf	1	}
container	training	in	tier0{	type	posix	tolerate	1	node	failures	checksum	crc32	server	}
mount	/mnt/daos-x{
  container	training	in	tier0
  on	gpu[001-003],	cn01
  user	dserve
  multi_user	true
  caching	write-through
  threads	8
  event_queues	2
  read_only	false
  intercept	pil4dfs
}
mount	/mnt/daos-x/in{	container	training	in	tier0	on	cn[01-02]	intercept	ioil	}
