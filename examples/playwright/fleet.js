/** The fleet the tests run against, shared by playwright.config.js (which starts it) and the tests (which sign in). */
export const PORT = Number(process.env.BNG_PORT_BASE ?? 9443);
export const ADMIN_PASSWORD = "example-noc-password-42";
