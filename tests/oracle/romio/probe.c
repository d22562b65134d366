/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* The hints ROMIO gives a file it opens: MPI_File_get_info on rank 0, one
 * "key value" line each. tests/validate/clients_check.py runs it through
 * with-daos-io under MPICH, whose ROMIO reads the file ROMIO_HINTS names
 * (romio/adio/common/system_hints.c). usage: probe FILE */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_File fh;
	if (MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) != MPI_SUCCESS)
		return 1;
	MPI_Info info;
	MPI_File_get_info(fh, &info);
	int rank, n;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Info_get_nkeys(info, &n);
	for (int i = 0; rank == 0 && i < n; i++) {
		char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
		int flag;
		MPI_Info_get_nthkey(info, i, key);
		MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
		printf("%s %s\n", key, val);
	}
	MPI_Info_free(&info);
	MPI_File_close(&fh);
	MPI_Finalize();
	return 0;
}
