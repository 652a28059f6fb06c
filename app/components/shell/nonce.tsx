import { createContext, useContext } from "react";

/** The per-request CSP nonce (server only; browsers hide nonce attributes from scripts anyway). */
const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
