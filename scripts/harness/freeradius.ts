/**
 * Debian's FreeRADIUS 3.2 for the end-to-end tests and bench:radius: unprivileged, in the foreground (`-f`), with its
 * own configuration in a temporary folder, the configuration docs/radius.md shows for the fleet: one client (the
 * appliance, on loopback, over TCP, Message-Authenticator required), TCP listeners for authentication and accounting
 * (RFC 6613) on ports the caller chose (below the ephemeral range, so a restart gets them back), the `users` file the
 * caller writes, and the accounting `detail` file, which `records()` reads back.
 */
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { daemon } from "./daemon.ts";

export const FREERADIUS = "/usr/sbin/freeradius";

export interface FreeRadiusOptions {
  authPort: number;
  acctPort: number;
  /** The client's shared secret as FreeRADIUS holds it. */
  secret: string;
  /** The `users` file (rlm_files), as written. */
  users: string;
}

export interface FreeRadius {
  dir: string;
  /**
   * Every accounting record of the detail file so far, oldest first: attribute name → value as written (quotes
   * removed).
   */
  records: () => Promise<Record<string, string>[]>;
  /** radiusd's log (radius.log: logins, rejects, dropped packets), so far. */
  log: () => Promise<string>;
  start: () => Promise<void>;
  /** SIGTERM, resolved once the process has exited (its connections closed). */
  stop: () => Promise<void>;
}

/** radiusd.conf for the fleet's appliances on loopback (docs/radius.md shows the same, with its addresses). */
export function radiusdConf(dir: string, options: FreeRadiusOptions): string {
  return `prefix = /usr
exec_prefix = /usr
sysconfdir = ${dir}
localstatedir = ${dir}
sbindir = /usr/sbin
logdir = ${dir}/log
raddbdir = ${dir}
radacctdir = ${dir}/radacct
name = freeradius
confdir = \${raddbdir}
run_dir = ${dir}/run
libdir = /usr/lib/freeradius
pidfile = \${run_dir}/\${name}.pid
max_request_time = 30
cleanup_delay = 5
max_requests = 65536
hostname_lookups = no
log {
	destination = files
	file = \${logdir}/radius.log
	auth = yes
}
security {
	max_attributes = 200
	reject_delay = 0
	status_server = yes
}
thread pool {
	start_servers = 4
	max_servers = 16
	min_spare_servers = 2
	max_spare_servers = 8
	max_queue_size = 65536
}
client bngfleet {
	ipaddr = 127.0.0.1
	proto = tcp
	secret = "${options.secret}"
	require_message_authenticator = yes
	limit {
		max_connections = 16
		lifetime = 0
		idle_timeout = 0
	}
}
modules {
	pap {
	}
	chap {
	}
	files {
		filename = \${confdir}/users
	}
	detail {
		filename = \${radacctdir}/detail
		permissions = 0600
		header = "%t"
	}
}
server default {
	listen {
		type = auth
		ipaddr = 127.0.0.1
		port = ${options.authPort}
		proto = tcp
	}
	listen {
		type = acct
		ipaddr = 127.0.0.1
		port = ${options.acctPort}
		proto = tcp
	}
	authorize {
		chap
		files
		pap
	}
	authenticate {
		Auth-Type PAP {
			pap
		}
		Auth-Type CHAP {
			chap
		}
	}
	preacct {
	}
	accounting {
		detail
	}
	post-auth {
	}
}
`;
}

/** A date as FreeRADIUS (in UTC) writes it in the detail file, `Dec  2 2026 04:09:42 UTC`, as epoch seconds. */
export function detailSeconds(text: string): number {
  return Date.parse(text.replace(/\s+/g, " ")) / 1000;
}

/** The records of a FreeRADIUS detail file: blank-line separated, a date line, then `\tName = value` lines. */
export function parseDetail(text: string): Record<string, string>[] {
  return text
    .split(/\n\n+/)
    .map((block) => block.split("\n").filter((line) => line.startsWith("\t")))
    .filter((lines) => lines.length > 0)
    .map((lines) =>
      Object.fromEntries(
        lines.map((line) => {
          const at = line.indexOf(" = ");
          return [line.slice(1, at), line.slice(at + 3).replace(/^"(.*)"$/, "$1")];
        }),
      ),
    );
}

/** Writes the configuration and starts radiusd listening on 127.0.0.1. */
export async function startFreeRadius(options: FreeRadiusOptions): Promise<FreeRadius> {
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-freeradius-"));
  await Promise.all(["log", "radacct", "run"].map((sub) => mkdir(path.join(dir, sub))));
  await writeFile(path.join(dir, "radiusd.conf"), radiusdConf(dir, options));
  await writeFile(path.join(dir, "users"), options.users);
  // In UTC, so the detail file's dates (Event-Timestamp, written as local time) read back as the API's instants.
  const { start, stop } = daemon("freeradius", FREERADIUS, ["-f", "-d", dir], [options.authPort, options.acctPort], {
    ...process.env,
    TZ: "UTC",
  });
  const records = async () => parseDetail(await readFile(path.join(dir, "radacct", "detail"), "utf8").catch(() => ""));
  const log = () => readFile(path.join(dir, "log", "radius.log"), "utf8").catch(() => "");
  await start();
  return { dir, records, log, start, stop };
}
