"""Talking to a remote safely: the environment and ``-c`` overrides of fetches and pushes.

Reading a revision (process.py) never talks to a remote; exchanging files with one does, and
then the user's own ssh and credential configuration must work while the repositories involved
(our private clone, a remote given by path) run no program of theirs: no hook, no fsmonitor, no
repository-local ``core.sshCommand`` or credential helper, no ``ext::`` transport.

- The user's global and system configuration are read by git as usual (they are the user's);
  the repository's own configuration is overridden on the command line (`remote_config`), and
  the user's ``core.sshCommand`` and credential helpers are read outside every repository
  (`user_settings`) and given again after the overrides.
- A remote given by path runs ``git receive-pack``/``upload-pack`` on our machine, reading that
  repository's hooks and configuration: `pack_commands` wraps both with the same overrides
  (``-c`` given to the outer git does not reach them: git clears it for the other repository).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ALLOWED_PROTOCOLS",
    "REMOTE_OVERRIDES",
    "RemoteError",
    "UserSettings",
    "check_remote",
    "is_local",
    "pack_commands",
    "receive_hooks",
    "remote_config",
    "transport_environment",
    "user_settings",
]

#: transports a verdicts remote may use; ``ext::`` and other remote helpers never
ALLOWED_PROTOCOLS = ("file", "ssh", "https", "http")

#: configuration that keeps the repositories' own programs from running, whatever they say
REMOTE_OVERRIDES: tuple[str, ...] = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "core.alternateRefsCommand=",
    "core.pager=cat",
    "protocol.allow=never",
    *(f"protocol.{name}.allow=always" for name in ALLOWED_PROTOCOLS),
    "protocol.ext.allow=never",
    "gc.auto=0",
    "maintenance.auto=false",
    "fetch.recurseSubmodules=false",
    "submodule.recurse=false",
    "push.recurseSubmodules=no",
    "push.gpgSign=false",
    "transfer.fsckObjects=true",
    "fetch.writeCommitGraph=false",
)

#: what the other repository's receive-pack/upload-pack run with, for a remote given by path
_PACK_OVERRIDES = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.alternateRefsCommand=",
    # a push into a checked-out branch with updateInstead would check files out (filters)
    "receive.denyCurrentBranch=refuse",
    "receive.autogc=false",
    "gc.auto=0",
)

#: variables the caller's environment may hand to git: the user's own transport settings
_KEPT_GIT_ENV = (
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_SSH_VARIANT",
    "GIT_ASKPASS",
    "GIT_TERMINAL_PROMPT",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_TRACE",
    "GIT_TRACE_PACKET",
    "GIT_CURL_VERBOSE",
)

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_SCP_LIKE = re.compile(r"[^/:]+:(?!//)")


class RemoteError(Exception):
    """The remote cannot be used as given; the message says why."""


def is_local(remote: str) -> bool:
    """True when git reaches ``remote`` through the file system (a path or ``file://``)."""
    scheme = _SCHEME.match(remote)
    if scheme:
        return scheme.group(1).lower() == "file"
    # git reads "host:path" as ssh unless a slash comes before the colon
    return not (_SCP_LIKE.match(remote) and "/" not in remote.split(":", 1)[0])


def check_remote(remote: str) -> str:
    """The remote as git should be given it (a path made absolute); RemoteError if unusable."""
    remote = remote.strip()
    if not remote:
        raise RemoteError("the remote is empty")
    if remote.startswith("-"):
        raise RemoteError(f"invalid remote {remote!r}: a remote cannot start with '-'")
    if any(ord(c) < 32 or ord(c) == 127 for c in remote):
        raise RemoteError("invalid remote: it holds control characters")
    if "::" in remote.split("/", 1)[0]:
        raise RemoteError(f"remote {remote!r}: transports through remote helpers are not allowed")
    scheme = _SCHEME.match(remote)
    if scheme:
        name = scheme.group(1).lower()
        if name not in ALLOWED_PROTOCOLS:
            allowed = ", ".join(f"{n}://" for n in ALLOWED_PROTOCOLS)
            raise RemoteError(f"remote {remote!r}: unsupported protocol {name} (use {allowed})")
        return remote
    if not is_local(remote):
        return remote  # user@host:path, read by git as ssh
    return str(Path(remote).expanduser().resolve())


@dataclass(frozen=True)
class UserSettings:
    """The user's own transport settings, read outside every repository."""

    ssh_command: str | None
    helpers: tuple[tuple[str, str], ...]  # (configuration key, helper), in git's order
    email: str = ""  # user.email, for the commits made in the user's name


def user_settings(cwd: Path) -> UserSettings:
    """``core.sshCommand``, the credential helpers and ``user.email`` of the user's global and
    system config.

    ``cwd`` must be a directory outside every repository (git is kept from looking above it).
    """
    env = transport_environment(UserSettings(None, ()))
    env["GIT_CEILING_DIRECTORIES"] = str(cwd.parent)
    env.pop("GIT_SSH_COMMAND", None)
    try:
        found = subprocess.run(
            ["git", "config", "--includes", "-z", "--get-regexp", _USER_KEYS],
            cwd=cwd,
            env=env,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            check=False,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return UserSettings(None, ())
    ssh_command = None
    email = ""
    helpers = []
    for entry in found.stdout.decode("utf-8", "surrogateescape").split("\0"):
        key, _, value = entry.partition("\n")
        if key == "core.sshcommand":
            ssh_command = value or None
        elif key == "user.email":
            email = value
        elif key.startswith("credential.") and key.endswith(".helper"):
            helpers.append((key, value))
    return UserSettings(ssh_command, tuple(helpers), email)


_USER_KEYS = r"^(core\.sshcommand|user\.email|credential\..*helper)$"


def transport_environment(user: UserSettings, *, interactive: bool = False) -> dict[str, str]:
    """The environment of a fetch or push: the caller's, without git variables it should not set.

    ``GIT_SSH_COMMAND`` is always set (the user's own, from the environment or their global
    config, else plain ssh), so a repository-local ``core.sshCommand`` is never used.
    """
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("GIT_") or key in _KEPT_GIT_ENV
    }
    if "GIT_SSH_COMMAND" not in env:
        if user.ssh_command:
            env["GIT_SSH_COMMAND"] = user.ssh_command
        elif env.get("GIT_SSH"):
            env["GIT_SSH_COMMAND"] = shlex.quote(env["GIT_SSH"])
        else:
            env["GIT_SSH_COMMAND"] = "ssh"
    env.update(
        GIT_ALLOW_PROTOCOL=":".join(ALLOWED_PROTOCOLS),
        GIT_PROTOCOL_FROM_USER="1",
        GIT_NO_REPLACE_OBJECTS="1",
        GIT_NO_LAZY_FETCH="1",
        GIT_PAGER="cat",
        GIT_EDITOR="false",
        LC_ALL="C",
        LANGUAGE="C",
    )
    if not interactive:  # nobody would see the prompt (a worker thread, a script)
        env["GIT_TERMINAL_PROMPT"] = "0"
    # variables that would point git elsewhere, if the caller's environment had them: GitPython
    # starts from os.environ, so they are given neutral values rather than left out
    env.update(GIT_CONFIG_PARAMETERS="", GIT_CONFIG_COUNT="0", GIT_NAMESPACE="")
    return env


def remote_config(user: UserSettings) -> list[str]:
    """The ``-c`` settings of every git process that touches the clone or the remote."""
    settings = list(REMOTE_OVERRIDES)
    # an empty helper empties the list gathered so far (the repository's included); the user's
    # own helpers, read from their global and system config, are then given again in order
    settings.append("credential.helper=")
    settings += [f"{key}={helper}" for key, helper in user.helpers]
    return settings


def pack_commands(remote: str, hooks: Path | None = None) -> dict[str, str]:
    """``--receive-pack``/``--upload-pack`` options for a remote given by path, else nothing.

    receive-pack looks for hooks in ``hooks`` (made by `receive_hooks`: assay's proc-receive
    only) when given, else nowhere. Over ssh or https the server runs its own hooks on its own
    machine; nothing is changed there (git-shell and forges accept only the plain commands).
    """
    if not is_local(remote):
        return {}
    overrides = " ".join(f"-c {shlex.quote(setting)}" for setting in _PACK_OVERRIDES)
    receive = overrides
    if hooks is not None:
        receive += " -c " + shlex.quote(f"core.hooksPath={hooks}")
    return {
        "receive_pack": f"git {receive} receive-pack",
        "upload_pack": f"git {overrides} upload-pack",
    }


def receive_hooks(directory: Path) -> Path:
    """A hook directory for a path remote's receive-pack holding only assay's proc-receive
    (evidence/git/proc_receive.py), written afresh; a repository that sets
    ``receive.procReceiveRefs`` gets its updates made by it instead of failing every push."""
    import sys

    script = Path(__file__).resolve().with_name("proc_receive.py")
    directory.mkdir(parents=True, exist_ok=True)
    for entry in directory.iterdir():  # anything else planted here would run as a hook
        if entry.is_dir() and not entry.is_symlink():
            import shutil

            shutil.rmtree(entry)
        else:
            entry.unlink()  # a link is removed, never written through
    hook = directory / "proc-receive"
    hook.write_text(
        f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -I -S {shlex.quote(str(script))}\n",
        encoding="utf-8",
    )
    hook.chmod(0o700)
    return directory
