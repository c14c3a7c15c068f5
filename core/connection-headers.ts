/**
 * Headers of one connection rather than of the message (RFC 9110 §7.6.1): each hop writes its own, so an answer
 * handed on leaves them out and an override cannot set them. Each user adds the body's framing it writes itself.
 */
export const CONNECTION_HEADERS: readonly string[] = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]
