// The home page's ad section: shown only when there is something to show; an enabled background
// video takes the carousel's place.
import { pickAdDisplay, useAds } from '../lib/content';
import { AdCarousel } from './AdCarousel';
import { BackgroundVideo } from './BackgroundVideo';

export function AdSection() {
  const { data } = useAds();
  const { video, slides } = pickAdDisplay(data);
  if (video) {
    return (
      <div className="ad-section container">
        <BackgroundVideo video={video} />
      </div>
    );
  }
  if (slides.length === 0) return null;
  return (
    <div className="ad-section container">
      <AdCarousel slides={slides} />
    </div>
  );
}
