// Files bundled as text (wrangler.toml [[rules]] type = "Text").
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const text: string;
  export default text;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const text: string;
  export default text;
}
// The web UI's build output (scripts/build-ui.ts), bundled as text.
declare module "*/ui/dist/app.js" {
  const text: string;
  export default text;
}
declare module "*/ui/dist/app.css" {
  const text: string;
  export default text;
}
