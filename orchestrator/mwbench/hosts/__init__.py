"""Running a cell's processes on several hosts.

- inventory.py: the hosts a run may use, from a YAML file: how each is
  reached (local, SSH, a network namespace), its build and its address;
- launcher.py: what a cell needs of a host (a place for its files, its
  processes, its idle hold), and the launchers of this machine and of a
  network namespace on it;
- ssh.py, remote_child.py: the same over OpenSSH;
- topology.py: which host each process of a cell runs on (the factor `hosts`);
- nodes.py: a deployment's nodes started on their hosts, and the node map;
- disclosure.py: `mwbench env` of every host, stored with the run.
"""
