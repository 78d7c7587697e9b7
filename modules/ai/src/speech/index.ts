/** The speech area: speech-to-text and text-to-speech providers, synthesis, voices, transcription. */
import type { Area } from '../area';
import { speechProviderOperations } from './provider-operations';
import { ttsOperations } from './tts-operations';

export const speechArea: Area = {
  // Literal paths (/ai/tts/synthesize/stream) before the ones with parameters.
  operations: { ...ttsOperations, ...speechProviderOperations('tts'), ...speechProviderOperations('stt') },
};
