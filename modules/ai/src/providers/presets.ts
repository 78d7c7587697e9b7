/**
 * Presets (spec 2, AI configuration: ten language-model vendors, three speech-to-text and four
 * text-to-speech offerings; Azure's speech-to-text is a fourth, beyond it), each with a base URL and its models. A language-model preset fills
 * POST /ai/providers; a speech preset is what POST /ai/{stt|tts}/providers is made from.
 *
 * Speech protocols, one per offering's API (../speech/stt.ts, stt-vendors.ts, tts.ts,
 * tts-vendors.ts): `json_base64` (Google Cloud, audio as base64 inside JSON), and the ones whose
 * audio travels as bytes through host.fetch binary bodies: `openai_multipart` (Whisper),
 * `deepgram_raw`, `azure_short_audio`, `openai_speech`, `elevenlabs`, `azure_ssml`. Every preset can be added
 * (`available`, kept in the presets' answer, is true for all).
 */
export type LlmType = 'vendora_compatible' | 'vendorb';
export const LLM_TYPES: readonly LlmType[] = ['vendora_compatible', 'vendorb'];

export interface LlmPreset {
  id: string;
  name: string;
  type: LlmType;
  base_url: string;
  models: string[];
}

export type SpeechProtocol = 'json_base64' | 'openai_multipart' | 'deepgram_raw' | 'azure_short_audio' | 'openai_speech' | 'elevenlabs' | 'azure_ssml';

export interface SpeechPreset {
  id: string;
  name: string;
  base_url: string;
  models: string[];
  protocol: SpeechProtocol;
  available: boolean;
  /** TTS only: the voices the offering lists (voice ids are provider-specific). */
  voices?: Array<{ id: string; name: string; language: string; gender?: string }>;
}

export const LLM_PRESETS: LlmPreset[] = [
  { id: 'openai', name: 'OpenAI', type: 'vendora_compatible', base_url: 'https://api.openai.com/v1', models: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini'] },
  // vendorb is the Anthropic Messages API (POST /v1/messages, x-api-key, its own SSE events).
  { id: 'anthropic', name: 'Anthropic', type: 'vendorb', base_url: 'https://api.anthropic.com', models: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'] },
  { id: 'google', name: 'Google Gemini', type: 'vendora_compatible', base_url: 'https://generativelanguage.googleapis.com/v1beta/openai', models: ['gemini-2.5-flash', 'gemini-2.5-pro'] },
  { id: 'mistral', name: 'Mistral AI', type: 'vendora_compatible', base_url: 'https://api.mistral.ai/v1', models: ['mistral-large-latest', 'mistral-small-latest'] },
  { id: 'groq', name: 'Groq', type: 'vendora_compatible', base_url: 'https://api.groq.com/openai/v1', models: ['llama-3.3-70b-versatile', 'llama-3.1-8b-instant'] },
  { id: 'deepseek', name: 'DeepSeek', type: 'vendora_compatible', base_url: 'https://api.deepseek.com/v1', models: ['deepseek-chat', 'deepseek-reasoner'] },
  { id: 'together', name: 'Together AI', type: 'vendora_compatible', base_url: 'https://api.together.xyz/v1', models: ['meta-llama/Llama-3.3-70B-Instruct-Turbo', 'Qwen/Qwen2.5-72B-Instruct-Turbo'] },
  { id: 'openrouter', name: 'OpenRouter', type: 'vendora_compatible', base_url: 'https://openrouter.ai/api/v1', models: ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4.5'] },
  { id: 'xai', name: 'xAI', type: 'vendora_compatible', base_url: 'https://api.x.ai/v1', models: ['grok-4', 'grok-3-mini'] },
  { id: 'perplexity', name: 'Perplexity', type: 'vendora_compatible', base_url: 'https://api.perplexity.ai', models: ['sonar', 'sonar-pro'] },
];

export const STT_PRESETS: SpeechPreset[] = [
  { id: 'google_stt', name: 'Google Cloud Speech-to-Text', base_url: 'https://speech.googleapis.com', models: ['latest_long', 'latest_short', 'telephony'], protocol: 'json_base64', available: true },
  { id: 'openai_whisper', name: 'OpenAI Whisper', base_url: 'https://api.openai.com/v1', models: ['whisper-1', 'gpt-4o-transcribe'], protocol: 'openai_multipart', available: true },
  { id: 'deepgram', name: 'Deepgram', base_url: 'https://api.deepgram.com/v1', models: ['nova-3', 'nova-2'], protocol: 'deepgram_raw', available: true },
  // The model is the recognition mode of the short-audio REST API (../speech/stt-vendors.ts); the region is the base URL's host.
  { id: 'azure_stt', name: 'Azure AI Speech', base_url: 'https://centralindia.stt.speech.microsoft.com', models: ['conversation', 'interactive', 'dictation'], protocol: 'azure_short_audio', available: true },
];

export const TTS_PRESETS: SpeechPreset[] = [
  {
    id: 'google_tts', name: 'Google Cloud Text-to-Speech', base_url: 'https://texttospeech.googleapis.com', models: ['standard', 'wavenet', 'neural2'], protocol: 'json_base64', available: true,
    voices: [
      { id: 'en-IN-Neural2-A', name: 'English (India) A', language: 'en-IN', gender: 'female' },
      { id: 'en-IN-Neural2-B', name: 'English (India) B', language: 'en-IN', gender: 'male' },
      { id: 'hi-IN-Neural2-A', name: 'Hindi A', language: 'hi-IN', gender: 'female' },
      { id: 'en-US-Neural2-C', name: 'English (US) C', language: 'en-US', gender: 'female' },
    ],
  },
  { id: 'openai_tts', name: 'OpenAI TTS', base_url: 'https://api.openai.com/v1', models: ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'], protocol: 'openai_speech', available: true, voices: [{ id: 'alloy', name: 'Alloy', language: 'multi' }, { id: 'nova', name: 'Nova', language: 'multi' }] },
  { id: 'elevenlabs', name: 'ElevenLabs', base_url: 'https://api.elevenlabs.io/v1', models: ['eleven_multilingual_v2', 'eleven_flash_v2_5'], protocol: 'elevenlabs', available: true, voices: [{ id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel', language: 'multi' }] },
  { id: 'azure_tts', name: 'Azure AI Speech', base_url: 'https://centralindia.tts.speech.microsoft.com', models: ['neural'], protocol: 'azure_ssml', available: true, voices: [{ id: 'en-IN-NeerjaNeural', name: 'Neerja', language: 'en-IN', gender: 'female' }] },
];
