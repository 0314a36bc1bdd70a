/**
 * The enumerations and constants the wire contract (src/schemas/) shares
 * with the model. A leaf: it imports nothing, so the contract can take these
 * at run time without loading the simulator, and the simulator can take the
 * contract's types without a circle.
 */

/** Syslog severity names (RFC 5424 §6.2.1), most severe first. */
export const SEVERITIES = ["emergency", "alert", "critical", "error", "warning", "notice", "info", "debug"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Alarm severities, most severe first. */
export const ALARM_SEVERITIES = ["critical", "major", "minor", "warning"] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

/** `raised` and `cleared` follow the alarm book; `test` is POST /alarms/test. */
export const NOTIFICATION_KINDS = ["raised", "cleared", "test"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The IGP the appliance runs, if any. */
export const IGP_PROTOCOLS = ["none", "ospf", "isis"] as const;
export type IgpProtocol = (typeof IGP_PROTOCOLS)[number];

/** BGP address families, as the spec names them. */
export const AFI_SAFIS = ["ipv4Unicast", "ipv6Unicast", "ipv4Vpn", "ipv6Vpn"] as const;
export type AfiSafi = (typeof AFI_SAFIS)[number];

/** Licence states, as GET /licensing and the scrape's `bng_licence_state` name them. */
export const LICENCE_STATES = ["Dev", "Licensed", "Grace", "Lapsed"] as const;
export type LicenceState = (typeof LICENCE_STATES)[number];
/** Licence modes: unlicensed development, online activation, offline lease. */
export const LICENCE_MODES = ["dev", "online", "offline"] as const;
export type LicenceMode = (typeof LICENCE_MODES)[number];

/** An upgrade's phases: writing the image to the standby slot. */
export const INSTALL_SECONDS = 30;
/** A graceful drain ends the live sessions evenly over this window. */
export const DRAIN_SECONDS = 120;
/** From the reboot until the data plane forwards again. */
export const REBOOT_SECONDS = 90;
