/** Where the live view is served. */
export const UI_PATH = '/kubesim/ui/';
