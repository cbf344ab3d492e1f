"""Writing a command's output to stdout as Unix tools do, for `dmlc` and `dmlc bench` (and
`python bench/run.py`): both command lines use it, so neither imports the other."""
import os
import signal
import sys

__all__ = ["quiet_on_broken_pipe", "stdout_to_devnull"]


def stdout_to_devnull():
    # Python flushes stdout again at exit; point it at devnull so that flush succeeds.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def quiet_on_broken_pipe(command, *args):
    """command(*args), ending quietly when stdout's reader has gone (`dmlc examples | head
    -1`), as Unix tools do: no traceback, and the exit status a shell gives a tool that
    SIGPIPE ended (128 + 13), where the platform has that signal.  Any other failure to
    write stdout (a full disk, /dev/full) is one line on stderr and exit status 1."""
    try:
        try:
            return command(*args)
        finally:
            # Inside the guard: output still buffered when the reader left fails here (also
            # after argparse's --help, whose SystemExit goes on when the flush succeeds).
            sys.stdout.flush()
    except BrokenPipeError:
        stdout_to_devnull()
        return 128 + signal.SIGPIPE if hasattr(signal, "SIGPIPE") else 1
    except OSError as e:
        stdout_to_devnull()
        print(f"dmlc: cannot write the output: {e.strerror or e}", file=sys.stderr)
        return 1
