/**
 * A small, strict XML 1.0 reader for the tests (no XML library is installed): it accepts one
 * declaration, elements with quoted attributes, text with the five predefined entities and
 * character references, and throws on anything else, so "it parses" means "it is well-formed".
 */
export interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

const NAME = '[A-Za-z_][\\w.-]*'
const ATTRIBUTE = new RegExp(`\\s+(${NAME})\\s*=\\s*"([^"<]*)"`, 'y')
const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g

export function parseXml(xml: string): XmlElement {
  const reader = { xml, at: 0 }
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml)
  if (!declaration) throw new Error('no XML declaration')
  reader.at = declaration[0].length
  const root = readElement(reader)
  if (xml.slice(reader.at).trim() !== '') throw new Error(`content after the root element at ${reader.at}`)
  return root
}

function readElement(reader: { xml: string; at: number }): XmlElement {
  const open = new RegExp(`<(${NAME})`, 'y')
  open.lastIndex = reader.at
  const start = open.exec(reader.xml)
  if (!start) throw new Error(`an element expected at ${reader.at}`)
  const element: XmlElement = { name: start[1]!, attributes: {}, children: [], text: '' }
  reader.at = open.lastIndex
  readAttributes(reader, element)
  if (reader.xml.startsWith('/>', reader.at)) {
    reader.at += 2
    return element
  }
  if (!reader.xml.startsWith('>', reader.at))
    throw new Error(`unterminated start tag <${element.name}> at ${reader.at}`)
  reader.at += 1
  readContent(reader, element)
  return element
}

function readAttributes(reader: { xml: string; at: number }, element: XmlElement): void {
  for (;;) {
    ATTRIBUTE.lastIndex = reader.at
    const attribute = ATTRIBUTE.exec(reader.xml)
    if (!attribute) break
    if (attribute[1]! in element.attributes) throw new Error(`attribute ${attribute[1]} repeated`)
    element.attributes[attribute[1]!] = decode(attribute[2]!)
    reader.at = ATTRIBUTE.lastIndex
  }
  reader.at += /^\s*/.exec(reader.xml.slice(reader.at))![0].length
}

function readContent(reader: { xml: string; at: number }, element: XmlElement): void {
  for (;;) {
    const next = reader.xml.indexOf('<', reader.at)
    if (next < 0) throw new Error(`<${element.name}> is never closed`)
    element.text += decode(reader.xml.slice(reader.at, next))
    reader.at = next
    const close = `</${element.name}>`
    if (reader.xml.startsWith(close, reader.at)) {
      reader.at += close.length
      return
    }
    if (reader.xml.startsWith('</', reader.at)) throw new Error(`mismatched end tag at ${reader.at}, expected ${close}`)
    element.children.push(readElement(reader))
  }
}

function decode(text: string): string {
  if (/&/.test(text.replace(ENTITY, ''))) throw new Error(`a bare & in ${JSON.stringify(text.slice(0, 40))}`)
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(text)) throw new Error('a character XML cannot hold')
  return text
    .replace(/&#x([0-9a-fA-F]+);/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
}

/** Every element named `name`, at any depth. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return [...(element.name === name ? [element] : []), ...element.children.flatMap((child) => findAll(child, name))]
}
