"""Puts drivers/ on the import path, so each driver's tests share driver_processes.py."""
