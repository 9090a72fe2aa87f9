"""What can be checked here of the deployment files without running them on a host: the systemd
unit, the Procfiles, compose.yaml, the Dockerfile and the release workflow start the bot with
valid settings, split the shards exactly once, and pass the tools hosts and CI use on them
(systemd-analyze, the Compose schema, hadolint, actionlint). The image itself is built and run
by tests/deploy/test_container.py."""

import configparser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # no stubs installed
import pytest
import yaml
from dotenv import dotenv_values

from bot.ops.shards import parse_shard_ids
from bot.settings import Settings

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "deploy" / "tictactoe-bot@.service"
PROCFILE = REPO / "deploy" / "Procfile.shards"
COMPOSE = REPO / "compose.yaml"
COMPOSE_SCHEMA = REPO / "tests" / "deploy" / "compose-spec.json"
WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
ENV_EXAMPLE = REPO / ".env.example"
README = REPO / "README.md"
MAX_EXPOSURE = 2.0  # systemd-analyze's "OK" ends at 3.9; the bot needs little


def tool_or_skip(name: str) -> str:
    """The tool's path; without it, skip, or fail under CI (which has it)."""
    path = shutil.which(name) or (
        str(Path(sys.executable).parent / name)
        if (Path(sys.executable).parent / name).exists()
        else None
    )
    if path:
        return path
    message = f"{name} is not installed"
    if "CI" in os.environ:
        pytest.fail(f"CI must run this check: {message}", pytrace=False)
    pytest.skip(message)


def read_unit() -> configparser.ConfigParser:
    # systemd allows a key more than once (EnvironmentFile, SystemCallFilter): keep the last,
    # as lists are not needed here; keys keep their case.
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(UNIT.read_text())
    return unit


def covers_every_shard_once(ranges: list[str], shard_count: int) -> bool:
    shards = [shard for text in ranges for shard in parse_shard_ids(text, shard_count)]
    return sorted(shards) == list(range(shard_count))


# The instances as the README names them: tictactoe-bot@0-3, tictactoe-bot@$(systemd-escape 4,5).
README_INSTANCE = re.compile(r"tictactoe-bot@(\$\(systemd-escape ([^)]+)\)|[0-9][0-9,-]*)")
README_SHARD_COUNT = 8  # the README's examples: SHARD_COUNT=8, processes 0-3 and 4-7
SYSTEMD_VARIABLE = re.compile(r"\$(\$|\{\w+\}|\w+)")


def readme_instances() -> dict[str, str]:
    """Each instance the README names: the unit name's instance part, as the README's command
    gives it to systemctl (a `$(systemd-escape ...)` run by a real shell), and the shards the
    reader means by it (0-3; 4,5)."""
    systemd_escape = tool_or_skip("systemd-escape")
    path = f"{Path(systemd_escape).parent}:{os.environ.get('PATH', '')}"
    instances = {}
    # The README's Deploy section and the several processes' recipes in docs/operations.md.
    text = README.read_text() + (REPO / "docs" / "operations.md").read_text()
    for match in README_INSTANCE.finditer(text):
        word = subprocess.run(
            ["sh", "-c", f"printf %s {match[0]}"],
            env={"PATH": path},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        instances[word.removeprefix("tictactoe-bot@")] = match[2] or match[1]
    return instances


def exec_start(instance: str) -> list[str]:
    """ExecStart= of the unit instantiated as `instance`, as systemd runs it: split into words
    (systemd's quoting is the shell's for this line), each word's specifiers filled in (%i the
    instance as named, %I unescaped by systemd's own tool, %S the state directory's root), then
    `$$` turned into `$` (the unit names no variable of its own)."""
    systemd_escape = tool_or_skip("systemd-escape")
    unescaped = subprocess.run(
        [systemd_escape, "--unescape", instance], capture_output=True, text=True, check=True
    ).stdout.strip()
    specifiers = {"%I": unescaped, "%i": instance, "%S": "/var/lib", "%%": "%"}

    def variable(match: re.Match[str]) -> str:
        assert match[1] == "$", f"ExecStart= names the variable {match[0]}"
        return "$"

    words = shlex.split(read_unit()["Service"]["ExecStart"])
    words = [re.sub("%[IiS%]", lambda m: specifiers[m[0]], word) for word in words]
    return [SYSTEMD_VARIABLE.sub(variable, word) for word in words]


def instance_environment(instance: str) -> dict[str, str]:
    """What the bot's process gets in the unit instantiated as `instance`, with an
    /etc/tictactoe-bot/env made by copying .env.example: ExecStart= run as systemd would, up
    to the bot's python (replaced by one that prints its environment)."""
    command = exec_start(instance)
    assert command[-3:] == ["/opt/tictactoe-bot/.venv/bin/python", "-m", "bot"]
    print_environment = [
        sys.executable,
        "-c",
        "import json, os; print(json.dumps(dict(os.environ)))",
    ]
    from_env_file = {k: v or "" for k, v in dotenv_values(ENV_EXAMPLE).items()}
    result = subprocess.run(
        [*command[:-3], *print_environment],
        env={
            **from_env_file,
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "DISCORD_TOKEN": "abc",
            "SHARD_COUNT": str(README_SHARD_COUNT),
            "DATABASE_URL": "postgresql+asyncpg://bot:secret@db/tictactoe",
        },
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def test_the_systemd_unit_runs_the_bot_with_the_instance_as_its_shards():
    service = read_unit()["Service"]
    assert shlex.split(service["ExecStart"])[-3:] == [
        "/opt/tictactoe-bot/.venv/bin/python",
        "-m",
        "bot",
    ]
    assert service["KillSignal"] == "SIGTERM"  # the bot's clean stop
    # A bad setting exits 2 (see bot/__main__.py): restarting cannot fix it.
    assert service["RestartPreventExitStatus"] == "2"
    assert "EnvironmentFile=/etc/tictactoe-bot/env" in UNIT.read_text()


def test_the_readme_names_a_range_and_an_escaped_list_of_shards():
    instances = readme_instances()
    assert instances["0-3"] == "0-3"  # systemctl enable --now tictactoe-bot@0-3
    assert instances["4\\x2c5"] == "4,5"  # tictactoe-bot@$(systemd-escape 4,5)


def test_each_instance_the_readme_names_runs_its_shards_whatever_the_env_file_says():
    """.env.example has SHARD_IDS= and DATA_DIR=data, and EnvironmentFile= would win over
    Environment=. %I alone turned tictactoe-bot@0-3 into SHARD_IDS=0/3 (exit 2); %i alone
    would give 4\\x2c5 to the bot."""
    state = Path("/var/lib") / read_unit()["Service"]["StateDirectory"]
    data_dirs = set()
    for instance, meant in readme_instances().items():
        settings = Settings.from_env(instance_environment(instance))
        assert settings.shard_ids == parse_shard_ids(meant, README_SHARD_COUNT), instance
        # Its own directory, inside the StateDirectory= that ProtectSystem=strict leaves
        # writable.
        assert settings.data_dir.parent == state, instance
        data_dirs.add(settings.data_dir)
    assert {(0, 1, 2, 3), (4, 5)} <= {
        parse_shard_ids(meant, README_SHARD_COUNT) for meant in readme_instances().values()
    }
    assert len(data_dirs) == len(readme_instances())


def test_systemd_accepts_the_unit():
    """systemd-analyze verify: the unit's syntax and quoting, its instance as the README names
    one, and the executables it starts."""
    systemd_analyze = tool_or_skip("systemd-analyze")
    result = subprocess.run(
        [systemd_analyze, "verify", "--man=no", str(UNIT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout + result.stderr == ""


def test_the_systemd_example_instances_split_the_shards():
    text = UNIT.read_text()
    instances = re.findall(r"tictactoe-bot@([0-9,-]+)\b", text)
    shard_count = int(re.search(r"SHARD_COUNT \((\d+) here\)", text)[1])  # type: ignore[index]
    assert len(instances) >= 2
    assert covers_every_shard_once(instances, shard_count)


def test_the_systemd_unit_is_hardened():
    """systemd-analyze's own rating of the sandbox: 8.5 "EXPOSED" before it was hardened."""
    systemd_analyze = tool_or_skip("systemd-analyze")
    result = subprocess.run(
        [systemd_analyze, "security", "--offline=true", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+) (\w+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match[1]) <= MAX_EXPOSURE, result.stdout
    assert f'rates it {match[1]} "{match[2]}"' in UNIT.read_text()  # the comment is current


def test_the_sharded_procfile_runs_one_process_per_group_of_shards():
    text = PROCFILE.read_text()
    shard_count = int(re.search(r"SHARD_COUNT=(\d+)", text)[1])  # type: ignore[index]
    processes = [line for line in text.splitlines() if line and not line.startswith("#")]
    ranges = []
    for line in processes:
        match = re.fullmatch(r"[a-z0-9]+: SHARD_IDS=([0-9,-]+) python -m bot", line)
        assert match, line
        ranges.append(match[1])
    assert len(ranges) >= 2
    assert covers_every_shard_once(ranges, shard_count)
    # Hosts read only the root Procfile, whose worker runs every shard.
    assert (REPO / "Procfile").read_text().strip() == "worker: python -m bot"
    assert "replaces it (cp deploy/Procfile.shards Procfile" in text


# compose.yaml


def load_compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


INTERPOLATION = re.compile(r"\$\{(\w+)(?::([-?])([^}]*))?\}")


def interpolate(value: str, dotenv: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error}, as `docker compose` fills them
    from .env."""

    def fill(match: re.Match[str]) -> str:
        name, kind, argument = match[1], match[2], match[3]
        if dotenv.get(name):
            return dotenv[name]
        if kind == "?":
            raise LookupError(argument)
        return argument if kind == "-" else ""

    return INTERPOLATION.sub(fill, value)


def bot_services(compose: dict) -> dict[str, dict]:
    return {name: s for name, s in compose["services"].items() if s.get("build") == "."}


def test_compose_follows_the_compose_specification():
    schema = json.loads(COMPOSE_SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    errors = [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in jsonschema.Draft7Validator(schema).iter_errors(load_compose())
    ]
    assert errors == []


def test_compose_starts_the_bot_once_postgresql_is_healthy():
    compose = load_compose()
    database = compose["services"]["db"]
    assert database["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    database_volume = database["volumes"][0].split(":")[0]
    bots = bot_services(compose)
    assert "bot" in bots
    for name, service in bots.items():
        assert service["depends_on"] == {"db": {"condition": "service_healthy"}}, name
        assert service["restart"] == "unless-stopped", name
        bot_volume, mount = service["volumes"][0].split(":")
        assert mount == "/data", name  # the image's DATA_DIR
        assert bot_volume in compose["volumes"], name
    assert database_volume in compose["volumes"]
    # Each process its own DATA_DIR (its spool is locked by one process).
    volumes = [service["volumes"][0] for service in bots.values()]
    assert len(set(volumes)) == len(volumes)


def test_compose_takes_the_secrets_from_dot_env_and_gives_the_bot_valid_settings():
    compose = load_compose()
    dotenv = {"DISCORD_TOKEN": "abc.def", "POSTGRES_PASSWORD": "s3cretpassw0rd"}
    for name, service in bot_services(compose).items():
        environment = {k: interpolate(str(v), dotenv) for k, v in service["environment"].items()}
        settings = Settings.from_env(environment)
        assert settings.token == "abc.def", name
        assert settings.database_url == (
            "postgresql+asyncpg://tictactoe:s3cretpassw0rd@db:5432/tictactoe"
        ), name
        for secret in ("DISCORD_TOKEN", "POSTGRES_PASSWORD"):
            with pytest.raises(LookupError, match=f"put {secret}=... in .env"):
                {
                    k: interpolate(str(v), {**dotenv, secret: ""})
                    for k, v in service["environment"].items()
                }
    database = compose["services"]["db"]["environment"]
    assert interpolate(database["POSTGRES_PASSWORD"], dotenv) == "s3cretpassw0rd"
    # No literal secret in the file.
    assert "abc.def" not in COMPOSE.read_text()


def test_compose_shard_profile_splits_the_shards_over_two_processes():
    compose = load_compose()
    sharded = {n: s for n, s in bot_services(compose).items() if "shards" in s.get("profiles", [])}
    assert len(sharded) == 2
    counts = {int(s["environment"]["SHARD_COUNT"]) for s in sharded.values()}
    assert len(counts) == 1
    ranges = [s["environment"]["SHARD_IDS"] for s in sharded.values()]
    assert covers_every_shard_once(ranges, counts.pop())
    # The one-process bot is not in the profile: `docker compose up -d` runs it alone.
    assert "profiles" not in compose["services"]["bot"]
    # The file's own comment says how to start them.
    assert f"up -d {' '.join(sharded)}" in COMPOSE.read_text()


# The Dockerfile and the release workflow


def test_the_dockerfile_is_hadolint_clean():
    hadolint = tool_or_skip("hadolint")
    result = subprocess.run(
        [hadolint, "--no-color", "--failure-threshold", "style", str(REPO / "Dockerfile")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_release_workflow_is_actionlint_clean_and_pushes_both_platforms():
    actionlint = tool_or_skip("actionlint")
    result = subprocess.run(
        [actionlint, "-no-color", str(WORKFLOW)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    workflow = yaml.safe_load(WORKFLOW.read_text())
    # PyYAML reads the key `on` as True (YAML 1.1).
    assert workflow[True]["push"]["tags"] == ["v*.*.*"]
    (job,) = workflow["jobs"].values()
    assert job["permissions"]["packages"] == "write"
    build = next(step for step in job["steps"] if "build-push-action" in step.get("uses", ""))
    assert build["with"]["platforms"] == "linux/amd64,linux/arm64"
    assert build["with"]["push"] is True
    assert "steps.meta.outputs.labels" in build["with"]["labels"]
    meta = next(step for step in job["steps"] if step.get("id") == "meta")
    assert meta["with"]["images"].startswith("ghcr.io/")
