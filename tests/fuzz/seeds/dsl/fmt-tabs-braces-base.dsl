# issue 54 item 11: blanks as tabs, every block's '{' touching its word
daos	2.6
cluster	c{
  provider	"ofi+verbs;ofi_rxm"
  access_points	n[1-3]
  fabric	roce{	gid_index	3	}
}
hardware	hw{
  sockets	2
  cores_per_socket	24
  threads_per_core	2
  memory_per_numa	256GiB
  numa	0{	nic	ens1	pci	0000:1a:00.0	role	storage
           nvme	0000:21:00.0	0000:22:00.0	}
  numa	1{	nic	ens2	pci	0000:9a:00.0	role	storage
           nvme	0000:a1:00.0	0000:a2:00.0	}
  bmc	redfish{	system	1	}
}
profile	p	:	hw{
  os	rhel9
  reserve	os	2	cores	per	numa
  engine	per	numa{	targets	8	helpers	2	scm	ram	32GiB	nvme	roles	[wal	meta	data]	}
  network{	storage	mtu	9000	mgmt	bond	active-backup	over	macvlan	}
  kernel{	iommu	pt	param	hugepagesz=2M	}
  bios{	ProcSmt	=	Enabled	}
  kubelet{	version	1.33	}
}
nodes	n[1-3]	:	p{
  mgmt	10.0.0.{10+i}/24	gateway	10.0.0.1
  storage	ens1	10.1.0.{i*2+1}/24,	ens2	10.1.0.{n*2}/24
  bmc	10.2.0.{n}
}
node	n2{	exclude	nvme	0000:a2:00.0	}
pool	p1{	size	90%	svc_rf	2	}
container	c1	in	p1{	type	posix	tolerate	1	node	failures	files	large	 checksum	crc32	server	}
