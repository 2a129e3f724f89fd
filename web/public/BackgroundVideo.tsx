// A background video ad: autoplay, muted, looped, with mute and fullscreen
// buttons; a play/pause button too, and no autoplay for visitors who prefer reduced motion.
import { useEffect, useRef, useState } from 'react';
import { useT } from '../i18n';
import { safeLink } from '../lib/media';
import type { BackgroundVideo as Video } from '../lib/rest';
import { useHydrated, usePrefersReducedMotion } from '../lib/useMediaQuery';

export function BackgroundVideo({ video }: { video: Video }) {
  const t = useT();
  const reducedMotion = usePrefersReducedMotion();
  // The server knows nothing of the visitor's motion preference: nothing plays before hydration,
  // then the visitor's choice, else the preference, decides.
  const hydrated = useHydrated();
  const frame = useRef<HTMLElement>(null);
  const player = useRef<HTMLVideoElement>(null);
  const [muted, setMuted] = useState(true);
  const [choice, setChoice] = useState<boolean | null>(null);
  const playing = hydrated && (choice ?? !reducedMotion);
  const autoplay = hydrated && !reducedMotion;
  const [fullscreen, setFullscreen] = useState(false);
  const link = safeLink(video.link);
  const title = video.title.trim();

  // React does not reliably reflect `muted`; the element's property is what autoplay checks.
  useEffect(() => {
    if (player.current) player.current.muted = muted;
  }, [muted]);

  useEffect(() => {
    const element = player.current;
    if (!element) return;
    if (playing)
      element.play()?.catch(() => setChoice(false)); // autoplay refused: show the play button
    else element.pause();
  }, [playing]);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === frame.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else
      void frame.current?.requestFullscreen?.().catch((error: unknown) => console.warn('Full screen refused', error));
  };

  return (
    <section className="background-video" ref={frame} aria-label={title || t('video.label')}>
      <video
        ref={player}
        className="background-video__media"
        src={video.media}
        autoPlay={autoplay}
        muted
        loop
        playsInline
        preload="metadata"
        aria-label={title || t('video.label')}
      />
      {title ? (
        <div className="background-video__caption">
          {link ? (
            <a href={link} target="_blank" rel="noopener noreferrer">
              {title}
              <span className="visually-hidden"> {t('app.opensInNewTab')}</span>
            </a>
          ) : (
            <span>{title}</span>
          )}
        </div>
      ) : null}
      <div className="background-video__controls">
        <button type="button" className="video-button" onClick={() => setChoice(!playing)}>
          {playing ? t('video.pause') : t('video.play')}
        </button>
        <button type="button" className="video-button" onClick={() => setMuted((value) => !value)}>
          {muted ? t('video.unmute') : t('video.mute')}
        </button>
        <button type="button" className="video-button" onClick={toggleFullscreen}>
          {fullscreen ? t('video.exitFullscreen') : t('video.fullscreen')}
        </button>
      </div>
    </section>
  );
}
