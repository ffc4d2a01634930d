Kernel panic|Oops|WARNING:|BUG:|KASAN:|lockdep:|possible recursive locking|possible circular locking|circular locking|inconsistent lock state|suspicious RCU|INFO: task .* blocked|unreferenced object
