"""What tests need beside the product: hosts made on this machine, a daemon as a driver
declares it. Standard library only and no import of `mwbench`, so that a component's or a
driver's tests use it without the orchestrator.

- namespaces.py: hosts in network namespaces joined by a switch (root);
- testhosts.py: such hosts running an OpenSSH server, with an mwbench inventory;
- daemons.py: the daemon a driver's --describe declares (iceoryx's RouDi), for a test.

`mwbench testhosts` and `mwbench clean` are the two verbs that use it (the first makes
test hosts for a user without a lab, the second removes those a killed maker left), so
the package is installed with mwbench (pyproject.toml) rather than only beside the tests.
"""
