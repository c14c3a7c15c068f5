/**
 * What Node's own resolver loads for agent-console-mock/browser (package.json's `node-addons` condition, which only
 * Node sets): a sentence naming the entry to use, where Node would say `ERR_PACKAGE_PATH_NOT_EXPORTED`.
 */
import { inNodeMessage } from '../../browser/in-node.js'

throw new Error(inNodeMessage('browser'))
