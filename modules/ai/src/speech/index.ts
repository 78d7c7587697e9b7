/** The speech area: speech-to-text and text-to-speech providers, synthesis, voices, transcription. */
import type { Area } from '../area';
import { speechProviderOperations } from './provider-operations';
import { sttOperations } from './stt-operations';
import { ttsOperations } from './tts-operations';

export const speechArea: Area = {
  // Literal paths (/ai/tts/synthesize/stream) before the ones with parameters.
  operations: { ...ttsOperations, ...sttOperations, ...speechProviderOperations('tts'), ...speechProviderOperations('stt') },
};
