import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import { registerMessages } from "./i18n";

// The whole files, the console's messages included (the browser loads those only on console pages).

// The server renders either locale on any request, so it holds both.
registerMessages("en", en);
registerMessages("ar", ar);
