export { toAiSdkTools, type AiSdkToolsSettings } from "./to-ai-sdk-tools.js";
