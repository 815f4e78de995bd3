declare module 'markdown-it-task-lists' {
  const taskLists: (
    md: unknown,
    options?: { enabled?: boolean; label?: boolean; labelAfter?: boolean },
  ) => void;
  export default taskLists;
}

declare module 'markdown-it-emoji' {
  type Plugin = (md: unknown, options?: Record<string, unknown>) => void;
  export const full: Plugin;
  export const light: Plugin;
  export const bare: Plugin;
}
