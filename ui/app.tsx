/**
 * The shell: sign-in when there is no session (and back to the same page
 * after), the navigation, this appliance's pages, and a peer's pages read
 * through the fleet proxy, marked read-only.
 */
import { useEffect } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { contract } from "bngfleet:contract";
import { call, csrfToken, sessionLost, type OperationRef } from "./api.ts";
import { can, checked, me, refreshSession, readableOnPeer } from "./session.ts";
import { location, navigate, pathname, searchParams } from "./router.ts";
import { SignIn } from "./pages/sign-in.tsx";
import { FirstPassword } from "./pages/first-password.tsx";
import { Dashboard } from "./pages/dashboard.tsx";
import { Sessions } from "./pages/sessions.tsx";
import { Logs } from "./pages/logs.tsx";
import { Configuration } from "./pages/configuration.tsx";
import { Fleet, PeerLink } from "./pages/fleet.tsx";
import { Tokens } from "./pages/tokens.tsx";
import { Alarms } from "./pages/alarms.tsx";
import { Upgrade } from "./pages/upgrade.tsx";
import { Account } from "./pages/account.tsx";
import { Search, SearchForm } from "./pages/search.tsx";
import { Troubleshooting } from "./pages/troubleshooting.tsx";
import { SystemPage } from "./pages/system.tsx";
import { Cgn } from "./pages/cgn.tsx";
import { Routing } from "./pages/routing.tsx";
import { Pools } from "./pages/pools.tsx";
import { L2tp } from "./pages/l2tp.tsx";
import { Ipsec } from "./pages/ipsec.tsx";
import { Gre } from "./pages/gre.tsx";
import { Vrfs } from "./pages/vrfs.tsx";
import { LocalSubscribers } from "./pages/local-subscribers.tsx";
import { Radius } from "./pages/radius.tsx";
import { Licensing } from "./pages/licensing.tsx";
import { Users } from "./pages/users.tsx";
import { OidcProviders } from "./pages/oidc.tsx";
import { PasskeyPolicy } from "./pages/passkey-policy.tsx";
import { StatusStrip } from "./components/status-strip.tsx";
import { startLive, stopLive } from "./live.ts";
import type { PageContext } from "./pages/context.ts";

interface PageEntry {
  slug: string;
  title: string;
  /** A GET the page needs: hidden from a role below its floor, and on a peer when the fleet proxy does not carry it. */
  probe: OperationRef;
  render: (ctx: PageContext) => ComponentChildren;
  /** Reached from the header, not listed in the navigation. */
  hidden?: boolean;
}

/** Every page, in navigation order. */
export const PAGES: PageEntry[] = [
  { slug: "", title: "Dashboard", probe: contract.sessions.summary, render: (ctx) => <Dashboard ctx={ctx} /> },
  { slug: "fleet", title: "Fleet", probe: contract.fleet.appliances, render: () => <Fleet /> },
  {
    slug: "search",
    title: "Subscriber search",
    probe: contract.sessions.list,
    render: () => <Search text={searchParams().get("q") ?? ""} />,
    hidden: true,
  },
  { slug: "sessions", title: "Sessions", probe: contract.sessions.list, render: (ctx) => <Sessions ctx={ctx} /> },
  { slug: "pools", title: "Address pools", probe: contract.addressPools.list, render: (ctx) => <Pools ctx={ctx} /> },
  { slug: "cgn", title: "CGN", probe: contract.cgn.status, render: (ctx) => <Cgn ctx={ctx} /> },
  { slug: "routing", title: "Routing", probe: contract.routing.bgpSummary, render: (ctx) => <Routing ctx={ctx} /> },
  { slug: "l2tp", title: "L2TP tunnels", probe: contract.l2tp.tunnels, render: (ctx) => <L2tp ctx={ctx} /> },
  { slug: "ipsec", title: "IPsec", probe: contract.ipsec.status, render: (ctx) => <Ipsec ctx={ctx} /> },
  { slug: "gre", title: "GRE circuits", probe: contract.greCircuits.status, render: (ctx) => <Gre ctx={ctx} /> },
  { slug: "vrfs", title: "VRFs and source-VRF rules", probe: contract.vrfs.list, render: (ctx) => <Vrfs ctx={ctx} /> },
  {
    slug: "local-subscribers",
    title: "Local subscribers",
    probe: contract.localSubscribers.list,
    render: (ctx) => <LocalSubscribers ctx={ctx} />,
  },
  { slug: "radius", title: "RADIUS servers", probe: contract.radius.servers, render: (ctx) => <Radius ctx={ctx} /> },
  { slug: "alarms", title: "Alarms", probe: contract.alarms.list, render: (ctx) => <Alarms ctx={ctx} /> },
  { slug: "logs", title: "Logs", probe: contract.logs.tail, render: (ctx) => <Logs ctx={ctx} /> },
  {
    slug: "config",
    title: "Configuration",
    probe: contract.config.values,
    render: (ctx) => <Configuration ctx={ctx} />,
  },
  { slug: "licensing", title: "Licensing", probe: contract.licensing.status, render: (ctx) => <Licensing ctx={ctx} /> },
  { slug: "system", title: "System", probe: contract.system.status, render: (ctx) => <SystemPage ctx={ctx} /> },
  {
    slug: "upgrade",
    title: "Software upgrade",
    probe: contract.upgrade.status,
    render: (ctx) => <Upgrade ctx={ctx} />,
  },
  { slug: "users", title: "Users", probe: contract.users.list, render: () => <Users /> },
  { slug: "tokens", title: "Tokens", probe: contract.tokens.list, render: () => <Tokens /> },
  { slug: "oidc", title: "OIDC providers", probe: contract.providers.listOidc, render: () => <OidcProviders /> },
  {
    slug: "passkey-policy",
    title: "Passkey policy",
    probe: contract.providers.getPasskeyPolicy,
    render: () => <PasskeyPolicy />,
  },
  {
    slug: "troubleshooting",
    title: "Troubleshooting",
    probe: contract.system.health,
    render: (ctx) => <Troubleshooting ctx={ctx} />,
  },
  { slug: "account", title: "My account", probe: contract.authSession.whoami, render: () => <Account /> },
];

/** The page and context a path names: `/<page>/…` here, `/fleet/<peer>/<page>/…` on a peer. */
function resolvePath(path: string): { page: PageEntry | undefined; ctx: PageContext } {
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "fleet" && parts.length >= 2) {
    const peer = parts[1]!;
    const page = PAGES.find((p) => p.slug === (parts[2] ?? ""));
    return { page, ctx: { peer, base: `/fleet/${encodeURIComponent(peer)}`, rest: parts.slice(3) } };
  }
  const page = PAGES.find((p) => p.slug === (parts[0] ?? ""));
  return { page, ctx: { peer: null, base: "", rest: parts.slice(1) } };
}

function Nav({ ctx }: { ctx: PageContext }) {
  const prefix = ctx.base;
  const current = resolvePath(pathname()).page?.slug;
  // Only what the role may read: the floors come with the contract's references.
  const listed = PAGES.filter((p) => !p.hidden);
  const pages = (
    ctx.peer ? listed.filter((p) => p.slug !== "fleet" && p.slug !== "account" && readableOnPeer(p.probe)) : listed
  ).filter((p) => can(p.probe));
  return (
    <nav aria-label="Sections">
      <ul>
        {pages.map((p) => (
          <li key={p.slug}>
            <a href={`${prefix}/${p.slug}`} aria-current={p.slug === current ? "page" : undefined}>
              {p.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

async function logout() {
  try {
    await call(contract.authSession.logout);
  } finally {
    me.value = null;
    csrfToken.value = null;
    stopLive();
    navigate("/", true);
  }
}

export function App() {
  useEffect(() => {
    void refreshSession();
  }, []);
  // The header strip follows the appliance while a session that may read it is open.
  useEffect(() => {
    const who = me.value;
    if (who && !who.passwordChangeRequired && !sessionLost.value && can(contract.system.status)) startLive();
    else stopLive();
  }, [me.value, sessionLost.value]);
  const path = pathname();
  const { page, ctx } = resolvePath(path);
  // One place sets the title, after every render that can change it (an effect elsewhere would overwrite it).
  useEffect(() => {
    const who = me.value;
    if (!who || sessionLost.value) document.title = "Sign in · Broadband gateway";
    else if (who.passwordChangeRequired) document.title = "Choose your own password · Broadband gateway";
    else
      document.title =
        `${page?.title ?? "Not found"}${ctx.peer ? ` · ${ctx.peer} (read-only)` : ""} ` + `· ${who.appliance}`;
  }, [location.value, me.value, sessionLost.value]);

  if (!checked.value) return <p class="muted">Loading…</p>;
  const who = me.value;
  if (!who || sessionLost.value) return <SignIn expired={sessionLost.value} />;
  if (who.passwordChangeRequired) return <FirstPassword username={who.username} />;
  return (
    <div class="layout">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <StatusStrip appliance={who.appliance} />
        <HeaderSearch />
        <span class="who">
          {who.username ?? who.tokenName} · {who.role}
        </span>
        <button type="button" onClick={() => void logout()}>
          Sign out
        </button>
      </header>
      <Nav ctx={ctx} />
      <main id="main" tabIndex={-1}>
        {ctx.peer && <PeerBanner peer={ctx.peer} />}
        {!page ? (
          <NotFound />
        ) : !can(page.probe) ? (
          <NotAllowed title={page.title} role={who.role} />
        ) : ctx.peer && !readableOnPeer(page.probe) ? (
          <NotRelayed title={page.title} peer={ctx.peer} />
        ) : (
          page.render(ctx)
        )}
      </main>
    </div>
  );
}

/** The subscriber search, from every page, for a role that may read sessions. */
function HeaderSearch() {
  return can(contract.sessions.list) ? (
    <SearchForm id="header-search" label="Search subscribers across the fleet" compact />
  ) : null;
}

function PeerBanner({ peer }: { peer: string }) {
  return (
    <div class="peer-banner" role="note">
      Viewing <strong>{peer}</strong> through the fleet proxy: <strong>read-only</strong>. Changes are made on the
      appliance itself: <PeerLink peer={peer} />.
    </div>
  );
}

function NotAllowed({ title, role }: { title: string; role: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p class="notice">This page is not open to the {role} role.</p>
    </>
  );
}

/**
 * A page whose reads the fleet proxy does not carry (the navigation leaves it out on a peer; a typed or old link still
 * arrives here).
 */
function NotRelayed({ title, peer }: { title: string; peer: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p class="notice">
        The fleet proxy does not relay this page's reads: <PeerLink peer={peer} />.
      </p>
    </>
  );
}

function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        No page here. <a href="/">Back to the dashboard</a>.
      </p>
    </>
  );
}
