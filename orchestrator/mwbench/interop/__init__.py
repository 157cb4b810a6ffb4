"""The IIOP interoperability matrix: every ORB's client against every ORB's server.

orbs.py says which driver plays each ORB, for plain objects and for
components; pairs.py runs one pair as a cell runs; reasons.py reads why a
pair failed; session.py runs and stores the whole matrix (`mwbench
interop`); report/interop.py draws it. docs/interop.md has the findings.
"""
