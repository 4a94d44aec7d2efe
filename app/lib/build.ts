/** The build id, set at build time (contract/edge.ts): the update check compares it with /builds/latest.json. */
export { BUILD_ID, BUILD_TIME } from "../../contract/edge";
