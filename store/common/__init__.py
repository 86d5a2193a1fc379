"""Plumbing every wing may use, and nothing else: the error type for bad input (`errors`), files written
whole or set aside (`files`), work run a few items ahead on an executor (`ahead`), the cycle collector
paused while objects are made by the hundred thousand (`collector`), long lists marshalled a slice at a time
(`sliced`), and memory handed back to the system (`heap`, glibc's malloc through ctypes). Imports no other wing."""
