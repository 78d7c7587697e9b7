/** The voice area: the voice assistant (speech in → the agent → speech out). */
import type { Area } from '../area';
import { voiceOperations } from './operations';

export const voiceArea: Area = { operations: voiceOperations };
